import { useRef, useState } from 'react';
import {
  addReference,
  chosenReferences,
  moveReference,
  offeredReferences,
  referenceListInput,
  removeReference,
} from '../../../domain/admin/reference-list';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { ReferenceOptions, useReferenceCombobox } from './reference-combobox';
import type { ReferenceChoice } from './reference-search';

export interface ReferenceListPickerProps {
  id: string;
  /** The hidden input that carries the chosen ids, one a line. */
  name: string;
  /** The related entity. */
  target: string;
  /** The ids chosen now, in order. */
  initial: readonly string[];
  /** Names known from the page: the chosen records' (a record not among them no longer exists), then the first others. */
  choices?: readonly ReferenceChoice[];
  labelledBy: string;
  invalid?: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  autoFocus?: boolean;
  testId?: string;
  /** The ids, one a line, whenever the list changes. */
  onChange?: (ids: string) => void;
}

const chipButton =
  'inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-muted hover:bg-sunken hover:text-current focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:opacity-30';

/**
 * Several records of another entity, in order (a campaign's ads): each chosen one a chip with its
 * name (or "no longer exists" when its record is gone), taken off with its button, moved with its
 * arrows (or Alt and the arrow keys); more are added by typing part of a name into the box, which
 * searches as the single reference picker does (arrows, Enter, Escape; Backspace in the empty box
 * takes off the last). The form sends the ids one a line.
 */
export function ReferenceListPicker({
  id,
  name,
  target,
  initial,
  choices = [],
  labelledBy,
  invalid,
  autoFocus,
  testId,
  onChange,
}: ReferenceListPickerProps) {
  const { t } = useLocale();
  const [ids, setIds] = useState<readonly string[]>(initial);
  const [names, setNames] = useState<Record<string, string>>(() =>
    Object.fromEntries(choices.map((choice) => [choice.value, choice.label])),
  );
  const [text, setText] = useState('');
  const [told, setTold] = useState('');
  const chips = useRef<HTMLUListElement>(null);
  const combobox = useReferenceCombobox({
    target,
    words: text,
    choices,
    offer: (results) => offeredReferences(results, ids),
    onPick: (choice) => add(choice),
  });
  const chosen = chosenReferences(ids, names, t('admin.reference.missing'));

  const change = (next: string[]) => {
    setIds(next);
    onChange?.(referenceListInput(next));
  };
  const add = (choice: ReferenceChoice) => {
    setNames((known) => ({ ...known, [choice.value]: choice.label }));
    change(addReference(ids, choice.value));
    setText('');
    setTold(t('admin.reference.added', { name: choice.label }));
  };
  const remove = (index: number) => {
    const gone = chosen[index];
    change(removeReference(ids, index));
    if (gone) setTold(t('admin.reference.removed', { name: gone.label }));
  };
  const move = (index: number, step: -1 | 1) => {
    change(moveReference(ids, index, step));
    // The focus follows the chip to its new place.
    requestAnimationFrame(() => {
      const buttons = chips.current?.querySelectorAll<HTMLButtonElement>('[data-chip-remove]');
      buttons?.[index + step]?.focus();
    });
  };

  return (
    <div className="mt-1.5 min-w-0" role="group" aria-labelledby={labelledBy} data-testid={testId}>
      <input type="hidden" name={name} value={referenceListInput(ids)} />
      {chosen.length > 0 ? (
        <ul ref={chips} aria-label={t('admin.reference.chosen')} className="mb-2 grid gap-1.5">
          {chosen.map((chip, index) => (
            <li
              key={chip.value}
              className={`flex min-w-0 items-center gap-1 rounded-full border py-0.5 pl-3.5 pr-1 ${chip.missing ? 'border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50' : 'border-line bg-sunken'}`}
              data-testid="reference-chip"
              data-missing={chip.missing || undefined}
            >
              <span
                className={`min-w-0 flex-1 truncate ${chip.missing ? 'italic' : ''}`}
                data-testid="reference-chip-label"
              >
                {chip.label}
              </span>
              <button
                type="button"
                className={chipButton}
                aria-label={t('admin.reference.moveUp', { name: chip.label })}
                disabled={index === 0}
                onClick={() => move(index, -1)}
              >
                <span aria-hidden="true">↑</span>
              </button>
              <button
                type="button"
                className={chipButton}
                aria-label={t('admin.reference.moveDown', { name: chip.label })}
                disabled={index === chosen.length - 1}
                onClick={() => move(index, 1)}
              >
                <span aria-hidden="true">↓</span>
              </button>
              <button
                type="button"
                className={chipButton}
                aria-label={t('admin.reference.remove', { name: chip.label })}
                data-chip-remove
                data-testid="reference-chip-remove"
                onClick={() => remove(index)}
                onKeyDown={(event) => {
                  if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
                  event.preventDefault();
                  move(index, event.key === 'ArrowUp' ? -1 : 1);
                }}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-2 text-sm text-muted">{t('admin.reference.empty')}</p>
      )}
      <div className="relative">
        <input
          id={id}
          type="text"
          {...combobox.inputProps}
          value={text}
          placeholder={t('admin.reference.add')}
          autoFocus={autoFocus}
          className={inputClass}
          {...invalid}
          aria-describedby={[invalid?.['aria-describedby'], `${id}-hint`].filter(Boolean).join(' ')}
          onChange={(event) => {
            setText(event.target.value);
            combobox.typed();
          }}
          onKeyDown={(event) => {
            // Enter never sends the form from here, even with the list closed.
            if (event.key === 'Enter') event.preventDefault();
            if (event.key === 'Backspace' && text === '' && ids.length > 0) {
              event.preventDefault();
              remove(ids.length - 1);
            } else {
              combobox.inputProps.onKeyDown(event);
            }
          }}
        />
        <ReferenceOptions combobox={combobox} />
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
        {t('admin.reference.keysHint')}
      </p>
      <p className="sr-only" aria-live="polite" data-testid="reference-told">
        {told}
      </p>
    </div>
  );
}
