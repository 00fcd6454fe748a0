/** A value, or the error a call threw (class, code, message), so that results and reverts compare alike. */
export function outcome<T>(f: () => T): T | string {
  try {
    return f();
  } catch (e) {
    const err = e as Error & { code?: string };
    return `${err.name}:${err.code ?? ''}:${err.message}`;
  }
}
