import { createStore } from './store';

export interface ActivityState {
  /** Hidden for longer than the inactivity time-out. */
  inactive: boolean;
  /** A meeting integration is sharing captions: stay active while hidden. */
  meetingActive: boolean;
}

export const activityStore = createStore<ActivityState>({ inactive: false, meetingActive: false });

export type KeyboardAction = 'space' | 'enter';
type Handler = () => void;

/** The page-level handlers of the global keys; the newest registration wins. */
export const keyboardActions = (() => {
  const handlers: { key: KeyboardAction; handler: Handler }[] = [];
  return {
    register(key: KeyboardAction, handler: Handler) {
      const entry = { key, handler };
      handlers.push(entry);
      return () => {
        handlers.splice(handlers.indexOf(entry), 1);
      };
    },
    dispatch(key: KeyboardAction): boolean {
      const entry = handlers.findLast((candidate) => candidate.key === key);
      entry?.handler();
      return Boolean(entry);
    },
  };
})();
