// The success envelope of the spec §2.1.

export interface Envelope<T> {
  success: true;
  data: T;
  message: string;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, data, message: '' };
}
