/** The only thing the inspector keeps in the browser: the tenant key, for this tab's session. */
const KEY = 'engram.key';

export function loadKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function saveKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function clearKey(): void {
  sessionStorage.removeItem(KEY);
}
