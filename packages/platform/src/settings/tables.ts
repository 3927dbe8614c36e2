/** Site-wide settings (settings.ts): one row a key. */
export interface SettingsTables {
  settings: { key: string; value: string };
}
