import Box from '@mui/material/Box';

/** Loudness now, as a bar: enough to see that the microphone hears the voice. */
export function LevelMeter({ level, label }: { level: number; label: string }) {
  // Speech sits around -30..-10 dBFS: map -60..0 dB onto the bar.
  const db = 20 * Math.log10(Math.max(level, 1e-6));
  const percent = Math.round(Math.min(100, Math.max(0, ((db + 60) / 60) * 100)));
  return (
    <Box
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      sx={{ height: 16, borderRadius: 8, bgcolor: 'grey.200', overflow: 'hidden', width: '100%' }}
    >
      <Box
        sx={{
          height: '100%',
          width: `${percent}%`,
          bgcolor: percent > 95 ? 'error.main' : 'primary.main',
          transition: 'width 60ms linear',
          '@media (prefers-reduced-motion: reduce)': { transition: 'none' },
        }}
      />
    </Box>
  );
}
