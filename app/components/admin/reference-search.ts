import { useEffect, useRef, useState } from 'react';
import { recordName, searchFieldsOf, titleFieldOf } from '../../../domain/admin/screens';
import { textPattern } from '../../../domain/admin/view';
import { entities, isEntityName } from '../../../domain/entities/index';
import { useLocale } from '../../i18n/messages';
import { records } from '../../api/services';
import { useLive } from '../../api/use-live';

/** How many records a search shows at most; typing more narrows them. */
export const REFERENCE_RESULTS = 20;
/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 200;

export interface ReferenceChoice {
  value: string;
  label: string;
}

/** The query a search sends: the text in any of the related entity's search fields, its names only. */
export function referenceQuery(target: string, text: string): Record<string, unknown> | null {
  if (!isEntityName(target)) return null;
  // An entity off the menu (a push message's test device) is named by its reference title.
  const title = titleFieldOf(target, '');
  if (!title) return null;
  const fields = searchFieldsOf(entities[target]);
  const query: Record<string, unknown> = { $select: ['_id', title], $limit: REFERENCE_RESULTS };
  const words = text.trim();
  if (!words) return query;
  if (fields.length === 0) return null;
  const $regex = textPattern(words);
  query.$or = fields.map((field) => ({ [field]: { $regex, $options: 'i' } }));
  return query;
}

/**
 * The records of `target` whose names match `words`, searched while `open` (the list shown): through
 * the live connection, as the staff member, a short pause after typing; until the connection is up
 * (or when it fails), among `choices`, the records known from the page. The reference combobox
 * (the single reference picker and the list of references) searches so.
 */
export function useReferenceSearch(
  target: string,
  open: boolean,
  words: string,
  choices: readonly ReferenceChoice[],
): { results: readonly ReferenceChoice[]; searching: boolean; answered: boolean } {
  const { locale } = useLocale();
  const live = useLive();
  // The results with the words they answer: until the search for new words answers, those shown are
  // an earlier search's.
  const [answer, setAnswer] = useState<{ words: string; results: readonly ReferenceChoice[] }>({
    words: '',
    results: choices,
  });
  const [searching, setSearching] = useState(false);
  const asked = useRef(0);

  useEffect(() => {
    if (!open) return;
    const ask = ++asked.current;
    const local = () => {
      const needle = words.trim().toLowerCase();
      return choices
        .filter((choice) => !needle || choice.label.toLowerCase().includes(needle) || choice.value === words.trim())
        .slice(0, REFERENCE_RESULTS);
    };
    const query = referenceQuery(target, words);
    if (!live || !query || !isEntityName(target)) {
      setAnswer({ words, results: local() });
      return;
    }
    setSearching(true);
    const timer = setTimeout(() => {
      live
        .call(target, (service) => records(service).find({ query }))
        .then((page) => {
          if (ask !== asked.current) return;
          setAnswer({
            words,
            results: page.data.map((record) => ({
              value: String(record._id),
              label: recordName(target, record, locale),
            })),
          });
        })
        .catch(() => {
          if (ask === asked.current) setAnswer({ words, results: local() });
        })
        .finally(() => {
          if (ask === asked.current) setSearching(false);
        });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // `choices` is the page's list: a new array each render, the same records.
  }, [open, words, target, live, locale]);

  // `answered`: the results answer `words` (what Enter may pick from).
  return { results: answer.results, searching, answered: answer.words === words && !searching };
}
