import i18n from '../i18n/index.ts';
import { useAuth } from '../stores/auth.ts';
import { API_BASE, API_TIMEOUT_MS, ApiError, handleUnauthorized, unwrapResponse } from './client.ts';

export interface UploadOptions {
  /** Extra query parameters (e.g. bookCode and scope for covers). */
  query?: Record<string, string | number | boolean | undefined | null>;
  /** The multipart field of the file; "file" unless told. */
  field?: string;
  /** Called with 0..1 as the request body is sent. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Sends one file as multipart/form-data with upload progress (fetch cannot report it), with the same
 * rules as every other call: base path, Bearer token, time-out, envelope, 401 and error keys (SPEC §7.1).
 */
export function uploadFile<T>(path: string, file: Blob, options: UploadOptions = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
  const form = new FormData();
  const name = file instanceof File ? file.name : 'file';
  form.append(options.field ?? 'file', file, name);

  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.timeout = options.timeoutMs ?? API_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    const token = useAuth.getState().token;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    const clientError = (key: 'network' | 'timeout') =>
      new ApiError({ status: 0, code: -1, key, message: i18n.t(`errors.${key}`) });
    const onAbort = () => xhr.abort();
    const cleanup = () => options.signal?.removeEventListener('abort', onAbort);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      cleanup();
      if (xhr.status === 401) handleUnauthorized();
      let json: unknown = undefined;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = undefined;
      }
      try {
        resolve(unwrapResponse<T>(xhr.status, xhr.statusText, json));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    xhr.onerror = () => {
      cleanup();
      reject(clientError('network'));
    };
    xhr.ontimeout = () => {
      cleanup();
      reject(clientError('timeout'));
    };
    xhr.onabort = () => {
      cleanup();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    if (options.signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    options.signal?.addEventListener('abort', onAbort);
    xhr.send(form);
  });
}
