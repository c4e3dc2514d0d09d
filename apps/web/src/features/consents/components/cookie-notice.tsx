import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { CookieConsentType } from '@parla/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The cookie notice: essential always on, non-essential optional (default: essential only). */
export function CookieNotice({ onChoose }: { onChoose: (types: CookieConsentType[]) => void }) {
  const { t } = useTranslation();
  const [nonEssential, setNonEssential] = useState(false);
  const noticeRef = useRef<HTMLElement>(null);
  // The page makes room below its content, so that nothing stays hidden behind the
  // notice and focused controls scroll clear of it (WCAG 2.4.11).
  useEffect(() => {
    const notice = noticeRef.current;
    if (!notice) return;
    const root = document.documentElement;
    const reserve = () => {
      const room = `${notice.offsetHeight + 32}px`;
      document.body.style.paddingBottom = room;
      root.style.scrollPaddingBottom = room;
    };
    reserve();
    const observer = new ResizeObserver(reserve);
    observer.observe(notice);
    return () => {
      observer.disconnect();
      document.body.style.paddingBottom = '';
      root.style.scrollPaddingBottom = '';
    };
  }, []);
  return (
    <Paper
      ref={noticeRef}
      component="section"
      aria-labelledby="cookie-notice-title"
      elevation={8}
      sx={{
        position: 'fixed',
        zIndex: (theme) => theme.zIndex.snackbar - 1,
        insetInlineStart: { xs: 8, sm: 24 },
        insetBlockEnd: { xs: 8, sm: 24 },
        width: { xs: 'calc(100% - 16px)', sm: 500 },
        maxWidth: 500,
        p: { xs: 2, sm: 3 },
        border: 2,
        borderColor: 'primary.main',
      }}
    >
      <Typography id="cookie-notice-title" variant="h2" sx={{ fontSize: '1.25rem', mb: 1 }}>
        {t('consents.cookies.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('consents.cookies.body')}
      </Typography>
      <FormGroup>
        <FormControlLabel
          control={<Checkbox checked disabled />}
          label={t('consents.cookies.essential')}
          // Always on, yet it must stay readable: disabled only for the pointer.
          sx={{ '& .MuiFormControlLabel-label.Mui-disabled': { color: 'text.primary' } }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={nonEssential}
              onChange={(event) => {
                setNonEssential(event.target.checked);
              }}
            />
          }
          label={t('consents.cookies.nonEssential')}
        />
      </FormGroup>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1 }}>
        <Button
          variant="outlined"
          onClick={() => {
            onChoose(nonEssential ? ['essential', 'non_essential'] : ['essential']);
          }}
        >
          {t('consents.cookies.save')}
        </Button>
        <Button
          variant="contained"
          onClick={() => {
            onChoose(['essential', 'non_essential']);
          }}
        >
          {t('consents.cookies.acceptAll')}
        </Button>
      </Box>
    </Paper>
  );
}
