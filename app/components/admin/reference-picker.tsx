import { useEffect, useId, useRef, useState } from 'react';
import { recordName, searchFieldsOf, titleFieldOf } from '../../../domain/admin/screens';
import { textPattern } from '../../../domain/admin/view';
import { entities, isEntityName } from '../../../domain/entities/index';
import { useLocale } from '../../i18n/messages';
import { records } from '../../api/services';
import { useLive } from '../../api/use-live';
import { inputClass } from '../forms/fields';

/** How many records a search shows at most; typing more narrows them. */
export const REFERENCE_RESULTS = 20;
/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 200;

export interface ReferenceChoice {
  value: string;
  label: string;
}

export interface ReferencePickerProps {
  id: string;
  /** The hidden input that carries the chosen record's id. */
  name: string;
  /** The related entity. */
  target: string;
  /** The chosen record (its id and name), or none. */
  initial: ReferenceChoice | null;
  /** Records known before anything is typed (the first of the related entity). */
  choices?: readonly ReferenceChoice[];
  invalid?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  autoFocus?: boolean;
  testId?: string;
  /** Another record was chosen, or the choice cleared. */
  onChange?: (value: string) => void;
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
 * (or when it fails), among `choices`, the records known from the page. The single reference picker
 * and the list of references both search so.
 */
export function useReferenceSearch(
  target: string,
  open: boolean,
  words: string,
  choices: readonly ReferenceChoice[],
): { results: readonly ReferenceChoice[]; searching: boolean } {
  const { locale } = useLocale();
  const live = useLive();
  const [results, setResults] = useState<readonly ReferenceChoice[]>(choices);
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
      setResults(local());
      return;
    }
    setSearching(true);
    const timer = setTimeout(() => {
      live
        .call(target, (service) => records(service).find({ query }))
        .then((page) => {
          if (ask !== asked.current) return;
          setResults(
            page.data.map((record) => ({ value: String(record._id), label: recordName(target, record, locale) })),
          );
        })
        .catch(() => {
          if (ask === asked.current) setResults(local());
        })
        .finally(() => {
          if (ask === asked.current) setSearching(false);
        });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // `choices` is the page's list: a new array each render, the same records.
  }, [open, words, target, live, locale]);

  return { results, searching };
}

/**
 * A field that points to another record, chosen by typing part of its name: the related entity
 * is searched as the staff member types (through the live connection, as they are), and a
 * record is picked from the list by mouse or keyboard (arrows, Enter, Escape). Until the
 * connection is up, the records known from the page are searched instead.
 */
export function ReferencePicker({
  id,
  name,
  target,
  initial,
  choices = [],
  invalid,
  autoFocus,
  testId,
  onChange,
}: ReferencePickerProps) {
  const { t } = useLocale();
  const listId = useId();
  const [chosen, setChosen] = useState<ReferenceChoice | null>(initial);
  const [text, setText] = useState(initial?.label ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { results, searching } = useReferenceSearch(target, open, text === chosen?.label ? '' : text, choices);

  const choose = (choice: ReferenceChoice | null) => {
    setChosen(choice);
    setText(choice?.label ?? '');
    setOpen(false);
    setActive(-1);
    onChange?.(choice?.value ?? '');
  };

  return (
    <div className="relative" data-testid={testId}>
      <input type="hidden" name={name} value={chosen?.value ?? ''} />
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-busy={searching || undefined}
        value={text}
        placeholder={t('admin.reference.placeholder')}
        autoFocus={autoFocus}
        className={inputClass}
        {...invalid}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
          if (!event.target.value.trim() && chosen) choose(null);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          // What was typed but not chosen gives way to the choice.
          setOpen(false);
          setText(chosen?.label ?? '');
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setOpen(true);
            if (results.length === 0) return;
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setActive((index) => (index + step + results.length) % results.length);
          } else if (event.key === 'Enter' && open) {
            event.preventDefault();
            const choice = results[active] ?? (results.length === 1 ? results[0] : undefined);
            if (choice) choose(choice);
          } else if (event.key === 'Escape' && open) {
            event.preventDefault();
            setOpen(false);
            setText(chosen?.label ?? '');
          }
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t('admin.reference.results')}
        hidden={!open}
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-line bg-raised py-1 shadow-lg"
      >
        {results.map((choice, index) => (
          <li
            key={choice.value}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={choice.value === chosen?.value}
            // Chosen on mouse down: the input's blur would otherwise close the list first.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(choice);
            }}
            className={`cursor-pointer px-3.5 py-2 ${index === active ? 'bg-brand-100 text-brand-950 dark:bg-brand-900 dark:text-brand-50' : 'hover:bg-sunken'} aria-selected:font-semibold`}
          >
            {choice.label}
          </li>
        ))}
        {results.length === 0 ? (
          <li className="px-3.5 py-2 text-muted">
            {searching ? t('admin.reference.searching') : t('admin.reference.none')}
          </li>
        ) : null}
      </ul>
    </div>
  );
}
