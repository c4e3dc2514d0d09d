import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A large "Choose files" button (the real file picker, keyboard reachable) inside an area
 * that also takes files dropped on it.
 */
export function FileDropZone({
  accept,
  hasFiles,
  disabled,
  onFiles,
}: {
  accept: string;
  hasFiles: boolean;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that choosing the same file again (after removing it) is noticed.
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  };
  const handleDragOver = (event: DragEvent) => {
    if (disabled || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const handleDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };

  return (
    <Box
      onDragOver={handleDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={handleDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: over ? 'primary.main' : 'divider',
        bgcolor: over ? 'action.hover' : 'background.paper',
        borderRadius: 2,
        p: { xs: 2.5, sm: 4 },
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        alignItems: { xs: 'stretch', sm: 'center' },
        justifyContent: 'center',
        gap: 2,
        textAlign: 'center',
      }}
    >
      <Typography sx={{ display: { xs: 'none', sm: 'block' } }}>{t('imports.picker.drop')}</Typography>
      <Button
        variant={hasFiles ? 'outlined' : 'contained'}
        size="large"
        disabled={disabled}
        onClick={() => input.current?.click()}
        sx={{ minWidth: 220 }}
      >
        {hasFiles ? t('imports.picker.chooseMore') : t('imports.picker.choose')}
      </Button>
      <input ref={input} type="file" multiple accept={accept} hidden tabIndex={-1} onChange={handleChange} />
    </Box>
  );
}
