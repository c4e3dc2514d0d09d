import {
  SHORTCUT_CONFLICT_MESSAGE,
  type Phrase,
  type PhraseSource,
  type Scenario,
  type ShortcutPhrase,
} from '@parla/contract';
import type { LexiconEntry } from '@parla/speech';
import { soundSwallowerLexicon } from '@parla/speech/node';
import { conflict, notFound } from '../errors.js';
import { newId } from '../lib/crypto.js';
import { isUniqueViolation } from '../lib/database-errors.js';
import type { PhrasesRepository, PhraseWithTakes } from '../repositories/phrases.repository.js';
import type { ShortcutsRepository } from '../repositories/shortcuts.repository.js';

/** The scenario a new user starts in. */
export const DEFAULT_SCENARIO = 'basic_needs';

const phraseInUse = () => conflict('This phrase is already in your list', 'PHRASE_EXISTS');

/** What a user wants to say: scenarios, their phrases, and shortcut phrases. */
export class PhrasesService {
  constructor(
    private readonly phrases: PhrasesRepository,
    private readonly shortcuts: ShortcutsRepository,
  ) {}

  async scenarios(userId: string): Promise<Scenario[]> {
    const active = await this.activeScenario(userId);
    const scenarios = await this.phrases.listScenarios();
    return scenarios.map((row) => ({
      scenario_id: row.id,
      name: row.name,
      description: row.description,
      isActive: row.id === active,
      dataset_size: row.dataset_size,
    }));
  }

  async activate(userId: string, scenarioId: string) {
    await this.assertScenario(scenarioId);
    await this.phrases.activate(userId, scenarioId, newId);
    return this.scenarios(userId);
  }

  async stats(userId: string) {
    await this.activeScenario(userId);
    return this.phrases.stats(userId);
  }

  async dataset(userId: string, scenarioId: string, limit: number) {
    await this.assertScenario(scenarioId);
    return this.phrases.dataset(userId, scenarioId, limit);
  }

  async list(
    userId: string,
    filter: { scenarioId?: string | undefined; sources?: PhraseSource[] | undefined },
  ) {
    await this.activeScenario(userId);
    return (await this.phrases.list(userId, filter)).map(presentPhrase);
  }

  /**
   * How the generic recogniser says the words of all of the user's phrases: a browser's engine
   * is taught these instead of downloading and reading its whole dictionary.
   */
  async pronunciations(userId: string): Promise<LexiconEntry[]> {
    const texts = (await this.list(userId, {})).map((phrase) => phrase.text);
    return (await soundSwallowerLexicon()).pronunciationsOf(texts);
  }

  async get(userId: string, id: string): Promise<Phrase> {
    const row = await this.phrases.find(userId, id);
    if (!row) throw notFound('Phrase');
    return presentPhrase(row);
  }

  async addDatasetPhrase(userId: string, id: string, scenarioId: string): Promise<Phrase> {
    const item = await this.phrases.findDatasetPhrase(id);
    if (item?.scenario_id !== scenarioId) throw notFound('Dataset phrase');
    const existing = await this.phrases.findByText(userId, item.text);
    if (existing) return this.get(userId, existing.id);
    return this.insert(userId, {
      text: item.text,
      language: item.language,
      scenario_id: scenarioId,
      source: 'dataset',
      dataset_phrase_id: item.id,
    });
  }

  async addCustomPhrase(userId: string, input: { text: string; language: string; scenario_id: string }) {
    await this.assertScenario(input.scenario_id);
    if (await this.phrases.findByText(userId, input.text)) throw phraseInUse();
    return this.insert(userId, { ...input, source: 'custom', dataset_phrase_id: null });
  }

  /** Changes a phrase's words; it becomes the user's own (source edited). */
  async edit(userId: string, id: string, text: string): Promise<Phrase> {
    await this.get(userId, id);
    const same = await this.phrases.findByText(userId, text);
    if (same && same.id !== id) throw phraseInUse();
    await this.phrases.updateText(userId, id, text);
    return this.get(userId, id);
  }

  async delete(userId: string, id: string) {
    if (!(await this.phrases.delete(userId, id))) throw notFound('Phrase');
  }

  async shortcutList(userId: string): Promise<ShortcutPhrase[]> {
    return (await this.shortcuts.list(userId)).map(presentShortcut);
  }

  async shortcut(userId: string, id: string): Promise<ShortcutPhrase> {
    const row = await this.shortcuts.find(userId, id);
    if (!row) throw notFound('Shortcut phrase');
    return presentShortcut(row);
  }

  async addShortcut(userId: string, input: { input: string; output: string }) {
    if (await this.shortcuts.findOtherWithInput(userId, input.input)) throw shortcutConflict();
    try {
      return presentShortcut(await this.shortcuts.insert({ id: newId(), user_id: userId, ...input }));
    } catch (error) {
      throw isUniqueViolation(error) ? shortcutConflict() : error;
    }
  }

  /** Changes a shortcut; its input must differ from the user's other shortcuts only. */
  async editShortcut(userId: string, id: string, input: { input: string; output: string }) {
    await this.shortcut(userId, id);
    if (await this.shortcuts.findOtherWithInput(userId, input.input, id)) throw shortcutConflict();
    try {
      const row = await this.shortcuts.update(userId, id, input);
      if (!row) throw notFound('Shortcut phrase');
      return presentShortcut(row);
    } catch (error) {
      throw isUniqueViolation(error) ? shortcutConflict() : error;
    }
  }

  async deleteShortcut(userId: string, id: string) {
    if (!(await this.shortcuts.delete(userId, id))) throw notFound('Shortcut phrase');
  }

  private async insert(
    userId: string,
    row: {
      text: string;
      language: string;
      scenario_id: string;
      source: PhraseSource;
      dataset_phrase_id: string | null;
    },
  ) {
    const id = newId();
    try {
      await this.phrases.insert({ id, user_id: userId, ...row });
    } catch (error) {
      throw isUniqueViolation(error) ? phraseInUse() : error;
    }
    return this.get(userId, id);
  }

  /** The active scenario; a user who never chose one starts in the default, with its core phrases. */
  private async activeScenario(userId: string) {
    const active = await this.phrases.activeScenario(userId);
    if (active) return active;
    await this.phrases.activate(userId, DEFAULT_SCENARIO, newId);
    return DEFAULT_SCENARIO;
  }

  private async assertScenario(id: string) {
    if (!(await this.phrases.scenarioExists(id))) throw notFound('Scenario');
  }
}

const shortcutConflict = () => conflict(SHORTCUT_CONFLICT_MESSAGE, 'SHORTCUT_EXISTS');

function presentPhrase(row: PhraseWithTakes): Phrase {
  return {
    id: row.id,
    text: row.text,
    language: row.language,
    scenario_id: row.scenario_id,
    source: row.source,
    takes: row.takes,
    lost_takes: row.lost_takes,
  };
}

function presentShortcut(row: { id: string; input: string; output: string }): ShortcutPhrase {
  return { id: row.id, input: row.input, output: row.output };
}
