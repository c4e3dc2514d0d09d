import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import { useId } from 'react';

/** One on/off setting with its explanation, as a large row. */
export function SettingSwitch(props: {
  label: string;
  help: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const helpId = useId();
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.5 }}>
      <FormControlLabel
        sx={{ width: '100%', justifyContent: 'space-between', ml: 0 }}
        labelPlacement="start"
        control={
          <Switch
            checked={props.checked}
            disabled={props.disabled ?? false}
            onChange={(event) => {
              props.onChange(event.target.checked);
            }}
            slotProps={{ input: { 'aria-describedby': helpId } }}
          />
        }
        label={props.label}
      />
      <FormHelperText id={helpId} sx={{ mx: 0 }}>
        {props.help}
      </FormHelperText>
    </Paper>
  );
}
