import type { PublicConfig } from '@yidu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';

export const configApi = {
  getPublic: () => api.get<PublicConfig>('/config/public'),
};

/** Public settings needed before login (invite requirement, phone registration, resend countdown...). */
export function usePublicConfig() {
  return useQuery({ queryKey: ['config', 'public'], queryFn: configApi.getPublic, staleTime: 5 * 60_000 });
}
