// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title ApprovalResetProbe
/// @notice Never deployed: the seeding run places this code, through an eth_call state override, at a spare address
/// (the owner) and calls `probe` on it. The owner approves a spender twice with non-zero amounts, as a wallet holding
/// a leftover allowance from an earlier quote would; a token with Tether USD's rule (approve reverts while the
/// allowance is not zero) refuses the second approval and accepts it after a reset to 0. No storage slot of the
/// token needs to be known: the token's own approve sets the first allowance.
contract ApprovalResetProbe {
    /// @return first approve(spender, 1) from a zero allowance succeeded.
    /// @return second approve(spender, 2) over the allowance of 1 succeeded.
    /// @return afterReset Tried only when `second` failed: approve(spender, 0), then approve(spender, 2), succeeded.
    function probe(address token, address spender) external returns (bool first, bool second, bool afterReset) {
        first = _approve(token, spender, 1);
        if (!first) return (false, false, false);
        second = _approve(token, spender, 2);
        if (second) return (true, true, false);
        afterReset = _approve(token, spender, 0) && _approve(token, spender, 2);
    }

    /// Whether approve(spender, amount) neither reverted nor returned false; tolerates tokens whose approve returns
    /// nothing (Tether USD on Ethereum).
    function _approve(address token, address spender, uint256 amount) private returns (bool) {
        (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0x095ea7b3, spender, amount));
        if (!ok) return false;
        if (data.length == 0) return true;
        return data.length >= 32 && abi.decode(data, (uint256)) == 1;
    }
}
