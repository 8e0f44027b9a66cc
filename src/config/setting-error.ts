/** A setting that cannot be used; start-up prints the message as one line and exits non-zero. */
export class SettingError extends Error {
  override readonly name = 'SettingError';
  constructor(
    readonly setting: string,
    reason: string,
  ) {
    super(`invalid setting ${setting}: ${reason}`);
  }
}
