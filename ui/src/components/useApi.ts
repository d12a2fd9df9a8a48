import { createContext, useContext } from 'react';
import type { EngramApi } from '../api/client';

export const ApiContext = createContext<EngramApi | null>(null);

/** The logged-in API client; views render only inside the provider. */
export function useApi(): EngramApi {
  const api = useContext(ApiContext);
  if (!api) throw new TypeError('useApi outside ApiContext');
  return api;
}
