import { SettingError } from '../config/setting-error.js';
import type { Settings } from '../config/settings.js';
import type { DomainRegistry } from '../domain/registry.js';
import { validateParams } from '../params/validate.js';

/** Settings that name parts of the domain can only be checked once the domain is loaded. */
export function checkSettingsAgainstDomain(settings: Settings, domain: DomainRegistry): void {
  if (settings.defaultAlgo === undefined) return;
  const algorithm = domain.algorithm(settings.defaultAlgo);
  if (!algorithm) {
    throw new SettingError('default_algo', `unknown algorithm "${settings.defaultAlgo}" (known: ${domain.algorithmNames.join(', ')})`);
  }
  try {
    validateParams(algorithm.parameters, settings.defaultAlgoParams);
  } catch (err) {
    throw new SettingError('default_algo_params', (err as Error).message);
  }
}
