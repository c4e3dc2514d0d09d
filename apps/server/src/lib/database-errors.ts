/** True for PostgreSQL's unique_violation (23505): two writers raced for one unique value. */
export function isUniqueViolation(error: unknown) {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}
