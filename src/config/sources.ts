import { readFileSync } from 'node:fs';
import { SETTING_NAMES, type RawSettings, type SettingName } from './settings.js';
import { SettingError } from './setting-error.js';

const ENV_PREFIX = 'SCENARIST_';

/** Settings from `SCENARIST_*` environment variables (strings; lists comma-separated). */
export function settingsFromEnv(env: NodeJS.ProcessEnv): RawSettings {
  const raw: RawSettings = {};
  for (const name of SETTING_NAMES) {
    const value = env[ENV_PREFIX + name.toUpperCase()];
    if (value !== undefined) raw[name] = value;
  }
  return raw;
}

/** Settings from a JSON config file whose keys are setting names. */
export function settingsFromFile(path: string): RawSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new SettingError('config', `cannot read config file ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SettingError('config', `config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SettingError('config', `config file ${path} must hold a JSON object of settings`);
  }
  const raw: RawSettings = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(SETTING_NAMES as readonly string[]).includes(key)) {
      throw new SettingError(key, `unknown setting in config file ${path} (known: ${SETTING_NAMES.join(', ')})`);
    }
    raw[key as SettingName] = value;
  }
  return raw;
}
