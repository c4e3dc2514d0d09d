import type { FieldErrors, FieldPath, FieldValues, RegisterOptions, UseFormRegister } from 'react-hook-form';

/**
 * Connects a react-hook-form field to an MUI TextField: the ref goes to the input, and
 * the error message becomes the helper text (announced with the field).
 */
export function fieldProps<T extends FieldValues>(
  register: UseFormRegister<T>,
  errors: FieldErrors<T>,
  name: FieldPath<T>,
  helperText?: string,
  rules?: RegisterOptions<T, FieldPath<T>>,
) {
  const { ref, ...rest } = register(name, rules);
  const error = name
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], errors) as
    { message?: string } | undefined;
  return {
    ...rest,
    inputRef: ref,
    error: Boolean(error),
    helperText: error?.message ?? helperText,
  };
}
