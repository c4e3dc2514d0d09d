import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/layout/page';
import { browserState, type RecognitionMode } from '../../lib/browser-state';
import { modePath } from '../../lib/redirects';

const MODES: RecognitionMode[] = ['speak', 'dictate'];

/** The choice between conversation and dictation; saved in this browser. */
export function ModePickerRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const current = browserState.get('recognitionMode');
  const handlePick = (mode: RecognitionMode) => {
    browserState.set('recognitionMode', mode);
    void navigate(modePath(mode));
  };
  return (
    <Page title={t('modePicker.title')} intro={t('modePicker.intro')}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        {MODES.map((mode) => (
          <Card
            key={mode}
            variant="outlined"
            sx={{ flex: 1, borderWidth: 2, borderColor: current === mode ? 'primary.main' : 'divider' }}
          >
            <CardActionArea
              onClick={() => {
                handlePick(mode);
              }}
              sx={{ p: 1, minHeight: 160 }}
            >
              <CardContent>
                <Typography variant="h2" component="span" sx={{ display: 'block', mb: 1 }}>
                  {t(`modes.${mode}.title`)}
                  {current === mode && ` (${t('modePicker.current')})`}
                </Typography>
                <Typography component="span">{t(`modes.${mode}.intro`)}</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Stack>
    </Page>
  );
}
