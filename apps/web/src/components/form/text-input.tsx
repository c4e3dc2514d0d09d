import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput, { type OutlinedInputProps } from '@mui/material/OutlinedInput';
import { useId } from 'react';

interface TextInputProps extends Omit<OutlinedInputProps, 'error' | 'label'> {
  label: string;
  error?: string | undefined;
  helperText?: string | undefined;
}

/**
 * A labelled text field without the select machinery of MUI's TextField, for screens
 * that must load fast (login). The error replaces the help text and is announced with
 * the field.
 */
export function TextInput({ label, error, helperText, required, id, ...inputProps }: TextInputProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const messageId = `${inputId}-message`;
  const message = error ?? helperText;
  return (
    <FormControl fullWidth error={Boolean(error)} required={required ?? false} variant="outlined">
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput
        id={inputId}
        label={required ? `${label} *` : label}
        aria-describedby={message ? messageId : undefined}
        {...inputProps}
      />
      {message && <FormHelperText id={messageId}>{message}</FormHelperText>}
    </FormControl>
  );
}
