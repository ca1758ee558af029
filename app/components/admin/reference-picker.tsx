import { useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import { ReferenceOptions, useReferenceCombobox } from './reference-combobox';
import type { ReferenceChoice } from './reference-search';

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
  const [chosen, setChosen] = useState<ReferenceChoice | null>(initial);
  const [text, setText] = useState(initial?.label ?? '');
  // What was typed but not chosen gives way to the choice.
  const restore = () => setText(chosen?.label ?? '');
  const combobox = useReferenceCombobox({
    target,
    words: text === chosen?.label ? '' : text,
    choices,
    onPick: (choice) => choose(choice),
    onDismiss: restore,
    onLeave: restore,
  });

  const choose = (choice: ReferenceChoice | null) => {
    setChosen(choice);
    setText(choice?.label ?? '');
    combobox.close();
    onChange?.(choice?.value ?? '');
  };

  return (
    <div className="relative" data-testid={testId}>
      <input type="hidden" name={name} value={chosen?.value ?? ''} />
      <input
        id={id}
        type="text"
        {...combobox.inputProps}
        value={text}
        placeholder={t('admin.reference.placeholder')}
        autoFocus={autoFocus}
        className={inputClass}
        {...invalid}
        onChange={(event) => {
          setText(event.target.value);
          combobox.typed();
          if (!event.target.value.trim() && chosen) choose(null);
        }}
      />
      <ReferenceOptions combobox={combobox} selected={chosen?.value ?? ''} />
    </div>
  );
}
