import Box from '@mui/material/Box';
import { useMemo } from 'react';
import { waveformPeaks } from '../speech-activity';

const COLUMNS = 120;

/** The recorded take drawn as columns of its loudness, so a clipped or silent take shows. */
export function TakeWaveform({ samples, label }: { samples: Int16Array; label: string }) {
  const peaks = useMemo(() => waveformPeaks(samples, COLUMNS), [samples]);
  return (
    <Box component="figure" sx={{ m: 0 }}>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${COLUMNS} 40`}
        preserveAspectRatio="none"
        style={{ width: '100%', height: 96, display: 'block' }}
      >
        {peaks.map((peak, index) => {
          const height = Math.max(0.6, peak * 40);
          return (
            <rect
              key={index}
              x={index + 0.15}
              y={20 - height / 2}
              width={0.7}
              height={height}
              fill={peak > 0.98 ? '#b3261e' : '#00695c'}
            />
          );
        })}
      </svg>
    </Box>
  );
}
