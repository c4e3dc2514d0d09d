import type { HandsFreeOptions } from './browser-state';
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

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  repeat: boolean;
  defaultPrevented: boolean;
  /** The key went to a field or a control, where it has its own meaning. */
  onInteractiveElement: boolean;
}

/**
 * Which global action a key press means (spec section 2): Space and Return, when the
 * hands-free keys are on; in the additional mode only with Ctrl, and then even on a
 * control. Anything else keeps its usual meaning.
 */
export function keyboardActionFor(
  press: KeyPress,
  options: HandsFreeOptions | undefined,
): KeyboardAction | null {
  if (!options?.enabled || press.defaultPrevented || press.altKey || press.metaKey || press.repeat)
    return null;
  const action = press.key === ' ' ? 'space' : press.key === 'Enter' ? 'enter' : null;
  if (!action || press.ctrlKey !== options.requireCtrl) return null;
  if (press.onInteractiveElement && !options.requireCtrl) return null;
  return action;
}
