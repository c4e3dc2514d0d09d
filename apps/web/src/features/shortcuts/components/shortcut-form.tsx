import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { fieldProps } from '../../../components/form/register-field';
import { normalizeError } from '../../../lib/api-error';
import type { ShortcutPhrase, ShortcutValues } from '../api/shortcuts.api';
import {
  SHORTCUT_INPUT_MAX,
  SHORTCUT_OUTPUT_MAX,
  checkShortcutInput,
  checkShortcutOutput,
  isInputConflict,
  type ShortcutFieldProblem,
} from '../shortcut-rules';

interface ShortcutFormProps {
  /** The shortcut being edited; a new one when absent. */
  editing?: ShortcutPhrase;
  /** The user's shortcuts as known, for the uniqueness check (the server checks again). */
  shortcuts: readonly ShortcutPhrase[];
  submitLabel: string;
  cancelHref: string;
  /** Saves the trimmed values; a rejection keeps the form as it is and shows why. */
  onSave: (values: ShortcutValues) => Promise<unknown>;
}

/** Input and output of a shortcut, both required and trimmed, the input unique ignoring case. */
export function ShortcutForm({ editing, shortcuts, submitLabel, cancelHref, onSave }: ShortcutFormProps) {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ShortcutValues>({
    defaultValues: { input: editing?.input ?? '', output: editing?.output ?? '' },
  });

  const messageOf = (problem: ShortcutFieldProblem | null, field: 'input' | 'output') => {
    switch (problem) {
      case null:
        return true;
      case 'empty':
        return field === 'input' ? t('shortcuts.form.inputEmpty') : t('shortcuts.form.outputEmpty');
      case 'too_long':
        return t('shortcuts.form.tooLong', {
          max: field === 'input' ? SHORTCUT_INPUT_MAX : SHORTCUT_OUTPUT_MAX,
        });
      case 'taken':
        return t('shortcuts.form.conflict');
    }
  };

  const handleSave = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSave({ input: values.input.trim(), output: values.output.trim() });
    } catch (error) {
      // Someone (another tab) took the input meanwhile: the same message, on the field.
      if (isInputConflict(error)) {
        setError('input', { message: t('shortcuts.form.conflict') }, { shouldFocus: true });
      } else {
        setFailure(t('shortcuts.form.saveFailed', { message: normalizeError(error).message }));
      }
    }
  });

  return (
    <Stack component="form" spacing={3} noValidate onSubmit={(event) => void handleSave(event)}>
      <TextField
        label={t('shortcuts.form.input')}
        required
        autoComplete="off"
        {...fieldProps(register, errors, 'input', t('shortcuts.form.inputHelp'), {
          validate: (value) => messageOf(checkShortcutInput(value, shortcuts, editing?.id), 'input'),
        })}
      />
      <TextField
        label={t('shortcuts.form.output')}
        required
        multiline
        minRows={3}
        {...fieldProps(register, errors, 'output', t('shortcuts.form.outputHelp'), {
          validate: (value) => messageOf(checkShortcutOutput(value), 'output'),
        })}
      />
      {failure && <Alert severity="error">{failure}</Alert>}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {submitLabel}
        </Button>
        <Button component={RouterLink} to={cancelHref} variant="outlined" size="large">
          {t('common.cancel')}
        </Button>
      </Box>
    </Stack>
  );
}
