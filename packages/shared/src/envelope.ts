/** Every API answer is wrapped in this envelope (DESIGN §4); `code` 0 means success. */
export interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}
