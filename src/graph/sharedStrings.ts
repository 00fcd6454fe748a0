import { type DeploymentId, deploymentId } from '../catalog/Catalog.ts';

/*
 * One string for every occurrence of a value the pool state repeats (a token address in every pool that names it, a
 * deployment id in every entry of the deployment): a big chain's index holds each once, not once per pool.
 */

/** Strings the entries of an index and of the indexes derived from it share (ChainPoolIndex.shared). */
export interface SharedStrings {
  /** Lower-case addresses by address as written. */
  readonly lowerCase: Map<string, string>;
  /** Deployment ids by dex, then version. */
  readonly deployments: Map<string, Map<string, DeploymentId>>;
}

/** `address` in lower case, one string for every occurrence of the address as written (kept in `lowerCase`). */
export function lowerCaseOnce(lowerCase: Map<string, string>, address: string): string {
  let lower = lowerCase.get(address);
  if (lower === undefined) {
    lower = address.toLowerCase();
    lowerCase.set(address, lower);
  }
  return lower;
}

/** deploymentId(dex, version), one string for every entry of the deployment. */
export function sharedDeployment(shared: SharedStrings, dex: string, version: string): DeploymentId {
  let versions = shared.deployments.get(dex);
  if (!versions) {
    versions = new Map();
    shared.deployments.set(dex, versions);
  }
  let id = versions.get(version);
  if (id === undefined) {
    id = deploymentId(dex, version);
    versions.set(version, id);
  }
  return id;
}
