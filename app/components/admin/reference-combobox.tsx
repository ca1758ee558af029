import { useId, useState, type KeyboardEvent } from 'react';
import { nextActive } from '../../../domain/admin/reference-list';
import { useLocale } from '../../i18n/messages';
import { useReferenceSearch, type ReferenceChoice } from './reference-search';

export interface ReferenceComboboxOptions {
  /** The related entity. */
  target: string;
  /** What is searched for (what is typed). */
  words: string;
  /** Records known from the page, searched until the live connection is up. */
  choices: readonly ReferenceChoice[];
  /** Which of the search's results are offered (all of them unless told). */
  offer?: (results: readonly ReferenceChoice[]) => readonly ReferenceChoice[];
  /** A record was picked (by Enter or by mouse). */
  onPick: (choice: ReferenceChoice) => void;
  /** Escape closed the list. */
  onDismiss?: () => void;
  /** The box lost the focus, the list closed. */
  onLeave?: () => void;
}

/**
 * The ARIA combobox of the reference pickers: a text box whose list of records (searched as
 * `useReferenceSearch` does) opens as it is focused or typed into, its options walked with the arrow
 * keys, one picked with Enter (the active one, or the only one) and the list closed with Escape.
 * Enter picks only among the answers to what is typed now: straight after typing, the list still
 * shows an earlier search's records, and Enter takes none of them.
 */
export function useReferenceCombobox({
  target,
  words,
  choices,
  offer = (results) => results,
  onPick,
  onDismiss,
  onLeave,
}: ReferenceComboboxOptions) {
  // The listbox's id; each option's is this id, a hyphen and its index.
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { results, searching, answered } = useReferenceSearch(target, open, words, choices);
  const options = offer(results);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const pick = (choice: ReferenceChoice) => {
    setActive(-1);
    onPick(choice);
  };

  return {
    listId,
    options,
    searching,
    open,
    active,
    close,
    pick,
    /** What was typed changed: the list opens, no option active. */
    typed() {
      setOpen(true);
      setActive(-1);
    },
    /** The input's combobox attributes and handlers. */
    inputProps: {
      role: 'combobox',
      autoComplete: 'off',
      'aria-autocomplete': 'list',
      'aria-expanded': open,
      'aria-controls': listId,
      'aria-activedescendant': open && active >= 0 ? `${listId}-${active}` : undefined,
      'aria-busy': searching || undefined,
      onFocus: () => setOpen(true),
      onClick: () => setOpen(true),
      onBlur: () => {
        close();
        onLeave?.();
      },
      onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          setOpen(true);
          setActive(nextActive(active, event.key, options.length));
        } else if (event.key === 'Enter' && open) {
          event.preventDefault();
          const choice = options[active] ?? (options.length === 1 ? options[0] : undefined);
          if (choice && answered) pick(choice);
        } else if (event.key === 'Escape' && open) {
          event.preventDefault();
          close();
          onDismiss?.();
        }
      },
    } as const,
  };
}

export interface ReferenceOptionsProps {
  combobox: ReturnType<typeof useReferenceCombobox>;
  /** The record chosen now, marked selected in the list; without it, the active option is. */
  selected?: string;
}

/** The listbox of a reference combobox: the records offered, or a line saying none (yet) match. */
export function ReferenceOptions({ combobox, selected }: ReferenceOptionsProps) {
  const { t } = useLocale();
  const { listId, options, searching } = combobox;
  return (
    // The list holds options alone (a listbox may own nothing else); the line saying none (yet)
    // match stands beside it in the same drop-down.
    <div
      hidden={!combobox.open}
      className="absolute z-20 mt-1 w-full rounded-lg border border-line bg-raised py-1 shadow-lg"
    >
      <ul id={listId} role="listbox" aria-label={t('admin.reference.results')} className="max-h-64 overflow-auto">
        {options.map((choice, index) => (
          <li
            key={choice.value}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={selected === undefined ? index === combobox.active : choice.value === selected}
            // Chosen on mouse down: the input's blur would otherwise close the list first.
            onMouseDown={(event) => {
              event.preventDefault();
              combobox.pick(choice);
            }}
            className={`cursor-pointer break-words px-3.5 py-2 ${index === combobox.active ? 'bg-brand-100 text-brand-950 dark:bg-brand-900 dark:text-brand-50' : 'hover:bg-sunken'}${selected === undefined ? '' : ' aria-selected:font-semibold'}`}
          >
            {choice.label}
          </li>
        ))}
      </ul>
      {options.length === 0 ? (
        <p className="px-3.5 py-2 text-muted" data-testid="reference-options-note">
          {searching ? t('admin.reference.searching') : t('admin.reference.none')}
        </p>
      ) : null}
    </div>
  );
}
