import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LoadingScreen } from '../../components/feedback/loading-screen';
import { paths } from '../../config/paths';
import { modelsInfoQueryOptions } from '../../features/models/api/models.api';
import {
  datasetQueryOptions,
  phrasesQueryOptions,
  scenarioStatsQueryOptions,
  scenariosQueryOptions,
  useActivateScenario,
  useAddCustomPhrase,
  useAddDatasetPhrase,
} from '../../features/phrases/api/phrases.api';
import { TakesProgress } from '../../features/phrases/components/takes-progress';
import { TAKES_PER_PHRASE } from '../../features/recording/training-queue';
import { normalizeError } from '../../lib/api-error';

/** /record: the recording state, the scenario, its phrases and how many takes each has. */
export function RecordPhrasesRoute() {
  const { t } = useTranslation();
  const scenarios = useQuery(scenariosQueryOptions());
  const stats = useQuery(scenarioStatsQueryOptions());
  const info = useQuery(modelsInfoQueryOptions());
  const activate = useActivateScenario();

  if (scenarios.isPending) return <LoadingScreen />;
  if (scenarios.isError) return <Alert severity="error">{t('recording.loadFailed')}</Alert>;
  const active = scenarios.data.find((scenario) => scenario.isActive) ?? scenarios.data[0];
  if (!active) return <Alert severity="info">{t('phrasesPage.noScenarios')}</Alert>;

  return (
    <Stack spacing={4}>
      {info.data && (
        <Alert
          severity={info.data.recording_state === 'model_built' ? 'success' : 'info'}
          action={
            info.data.recording_state === 'model_built' ? (
              <Button component={RouterLink} to={paths.speak.getHref()} color="inherit">
                {t('phrasesPage.useIt')}
              </Button>
            ) : undefined
          }
        >
          {t(`phrasesPage.state.${info.data.recording_state}`)}
        </Alert>
      )}

      <Box component="section" aria-labelledby="scenarios-heading">
        <Typography id="scenarios-heading" variant="h2" sx={{ mb: 1 }}>
          {t('phrasesPage.scenarios')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('phrasesPage.scenariosIntro')}
        </Typography>
        <ToggleButtonGroup
          exclusive
          value={active.scenario_id}
          onChange={(_event, value: string | null) => {
            if (value && value !== active.scenario_id) activate.mutate(value);
          }}
          aria-label={t('phrasesPage.scenarios')}
          sx={{ flexWrap: 'wrap', gap: 1, '& .MuiToggleButtonGroup-grouped': { border: 1, borderRadius: 2 } }}
        >
          {scenarios.data.map((scenario) => {
            const stat = stats.data?.find((item) => item.scenario_id === scenario.scenario_id);
            return (
              <ToggleButton
                key={scenario.scenario_id}
                value={scenario.scenario_id}
                sx={{
                  textTransform: 'none',
                  // MUI's grey falls below 4.5:1 on its own hover background; the selected colour stays.
                  color: 'text.primary',
                  flexDirection: 'column',
                  alignItems: 'flex-start',
                  minWidth: 180,
                }}
              >
                <span style={{ fontWeight: 700 }}>{scenario.name}</span>
                <span>
                  {(stat?.phrases ?? 0) === 0
                    ? t('phrasesPage.noPhrasesYet')
                    : t('phrasesPage.recordedOf', {
                        recorded: stat?.recorded_phrases ?? 0,
                        total: stat?.phrases ?? 0,
                      })}
                </span>
              </ToggleButton>
            );
          })}
        </ToggleButtonGroup>
        {activate.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {normalizeError(activate.error).message}
          </Alert>
        )}
      </Box>

      <ScenarioPhrases scenarioId={active.scenario_id} name={active.name} description={active.description} />
    </Stack>
  );
}

function ScenarioPhrases({
  scenarioId,
  name,
  description,
}: {
  scenarioId: string;
  name: string;
  description: string;
}) {
  const { t } = useTranslation();
  const phrases = useQuery(phrasesQueryOptions({ scenarioId }));
  const needing = phrases.data?.filter((phrase) => phrase.takes < TAKES_PER_PHRASE).length ?? 0;
  const complete = (phrases.data?.length ?? 0) - needing;

  return (
    <>
      <Box component="section" aria-labelledby="phrases-heading">
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
        >
          <Box>
            <Typography id="phrases-heading" variant="h2">
              {t('phrasesPage.yourPhrases', { scenario: name })}
            </Typography>
            <Typography color="text.secondary">{description}</Typography>
          </Box>
          {/* Only once the phrases are known: "all recorded" must not flash while they load. */}
          {phrases.isSuccess && (
            <Button
              component={RouterLink}
              to={paths.recordTraining.getHref(scenarioId)}
              variant="contained"
              size="large"
              disabled={needing === 0}
            >
              {needing > 0 ? t('phrasesPage.recordCount', { count: needing }) : t('phrasesPage.allRecorded')}
            </Button>
          )}
        </Stack>
        {phrases.isPending ? (
          <LinearProgress aria-label={t('phrasesPage.loading')} />
        ) : phrases.isError ? (
          <Alert severity="error">{t('recording.loadFailed')}</Alert>
        ) : phrases.data.length === 0 ? (
          <Alert severity="info">{t('phrasesPage.noPhrases')}</Alert>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {t('phrasesPage.progress', { complete, total: phrases.data.length })}
            </Typography>
            <Paper variant="outlined">
              <List aria-label={t('phrasesPage.yourPhrases', { scenario: name })}>
                {phrases.data.map((phrase) => (
                  <ListItem
                    key={phrase.id}
                    divider
                    secondaryAction={
                      phrase.takes < TAKES_PER_PHRASE ? (
                        <Button
                          component={RouterLink}
                          to={paths.recordTraining.getHref(phrase.id)}
                          aria-label={t('phrasesPage.recordOne', { phrase: phrase.text })}
                        >
                          {t('phrasesPage.record')}
                        </Button>
                      ) : undefined
                    }
                  >
                    <ListItemText
                      primary={phrase.text}
                      slotProps={{ primary: { sx: { fontSize: '1.1rem' } } }}
                      sx={{ pr: 12 }}
                      secondary={
                        <TakesProgress
                          phrase={phrase}
                          takesPerPhrase={TAKES_PER_PHRASE}
                          label={(count, total) => t('phrasesPage.takes', { count, total })}
                        />
                      }
                    />
                  </ListItem>
                ))}
              </List>
            </Paper>
          </>
        )}
      </Box>
      <AddPhrases scenarioId={scenarioId} />
    </>
  );
}

/** Catalogue phrases of the scenario to add with one press, and a phrase of one's own. */
function AddPhrases({ scenarioId }: { scenarioId: string }) {
  const { t } = useTranslation();
  const dataset = useQuery(datasetQueryOptions(scenarioId));
  const addDataset = useAddDatasetPhrase();
  const addCustom = useAddCustomPhrase();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const available = dataset.data?.filter((phrase) => !phrase.added) ?? [];

  const handleAddOwn = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const words = text.trim();
    if (!words) {
      setError(t('phrasesPage.ownEmpty'));
      return;
    }
    setError(null);
    addCustom.mutate(
      { text: words, scenario_id: scenarioId },
      {
        onSuccess: () => setText(''),
        onError: (failure) => setError(normalizeError(failure).message),
      },
    );
  };

  return (
    <Box component="section" aria-labelledby="add-heading">
      <Typography id="add-heading" variant="h2" sx={{ mb: 1 }}>
        {t('phrasesPage.add')}
      </Typography>
      <Box
        component="form"
        onSubmit={handleAddOwn}
        noValidate
        sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mb: 3 }}
      >
        <TextField
          label={t('phrasesPage.ownLabel')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          error={error !== null}
          helperText={error ?? t('phrasesPage.ownHelp')}
          slotProps={{ htmlInput: { maxLength: 200 } }}
          sx={{ flex: '1 1 280px' }}
        />
        <Button
          type="submit"
          variant="outlined"
          size="large"
          disabled={addCustom.isPending}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('phrasesPage.ownAdd')}
        </Button>
      </Box>
      {dataset.isError && <Alert severity="error">{t('recording.loadFailed')}</Alert>}
      {available.length > 0 && (
        <>
          <Stack
            direction="row"
            sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, flexWrap: 'wrap', gap: 1 }}
          >
            <Typography>{t('phrasesPage.suggested', { count: available.length })}</Typography>
            <Button
              onClick={() => {
                for (const phrase of available) addDataset.mutate({ id: phrase.id, scenario_id: scenarioId });
              }}
              disabled={addDataset.isPending}
            >
              {t('phrasesPage.addAll')}
            </Button>
          </Stack>
          <Paper variant="outlined">
            <List aria-label={t('phrasesPage.suggestedList')} dense>
              {available.map((phrase) => (
                <ListItem
                  key={phrase.id}
                  divider
                  secondaryAction={
                    <Button
                      onClick={() => addDataset.mutate({ id: phrase.id, scenario_id: scenarioId })}
                      aria-label={t('phrasesPage.addOne', { phrase: phrase.text })}
                      disabled={addDataset.isPending}
                    >
                      {t('phrasesPage.addButton')}
                    </Button>
                  }
                >
                  <ListItemText primary={phrase.text} slotProps={{ primary: { sx: { pr: 10 } } }} />
                </ListItem>
              ))}
            </List>
          </Paper>
        </>
      )}
      {addDataset.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {normalizeError(addDataset.error).message}
        </Alert>
      )}
    </Box>
  );
}
