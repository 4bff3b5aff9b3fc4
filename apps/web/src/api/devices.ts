import type { CreatedDevicePassword, DevicePassword } from '@yidu/shared/devices';
import { api, request } from './client.ts';

export type { CreatedDevicePassword, DevicePassword } from '@yidu/shared/devices';

/** Device passwords for e-readers: the OPDS catalogs and KOReader's progress sync log in with them. */
export const devicesApi = {
  list: () => api.get<DevicePassword[]>('/user/devicePasswords'),
  create: (name: string) => api.post<CreatedDevicePassword>('/user/devicePasswords', { name }),
  revoke: (id: number) => request<null>(`/user/devicePasswords/${id}`, { method: 'DELETE' }),
};
