// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title ApprovalResetToken
/// @notice A mintable ERC-20 for the devnet with Tether USD's approval rule on Ethereum: approve() reverts when both the
/// current allowance and the new value are non-zero (TetherToken.approve: require(!((_value != 0) && (allowed[msg.sender][_spender] != 0)))).
/// Like Tether USD, transfer, transferFrom and approve return nothing.
contract ApprovalResetToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external {
        require(!((value != 0) && (allowance[msg.sender][spender] != 0)), "approve: reset the allowance to 0 first");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }

    function transferFrom(address from, address to, uint256 value) external {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "transferFrom: allowance too low");
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "transfer: balance too low");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
