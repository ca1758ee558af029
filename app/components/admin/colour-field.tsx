import { useState } from 'react';
import { COLOUR, typedColour } from '../../../domain/entities/widget-values';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';

/**
 * A colour in the editor: the browser's own colour picker beside the hex text it stands for. The
 * text is what the form sends (`#rrggbb`), so a colour can be typed or pasted as well as picked;
 * the picker follows the text while the text is a colour.
 */
export function ColourField({
  id,
  name,
  value,
  label,
  invalid,
  onChange,
}: {
  id: string;
  name: string;
  value: string;
  /** The field's name, for the picker's own label. */
  label: string;
  invalid: Record<string, unknown>;
  /** The text, after any change (picked, typed, or completed on leaving the box). */
  onChange: (text: string) => void;
}) {
  const { t } = useLocale();
  const [text, setTextState] = useState(value);
  const setText = (next: string) => {
    setTextState(next);
    if (next !== text) onChange(next);
  };
  const colour = typedColour(text);
  const shown = COLOUR.test(colour) ? colour : '#000000';
  return (
    <div className="mt-1.5 flex items-center gap-3" data-testid={`colour-${id.replace(/^field-/, '')}`}>
      <input
        type="color"
        value={shown}
        onChange={(event) => setText(event.target.value)}
        aria-label={t('admin.colour.picker', { field: label })}
        className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-line bg-raised p-1"
        data-testid="colour-picker"
      />
      <input
        id={id}
        name={name}
        value={text}
        onChange={(event) => setText(event.target.value)}
        // `1a6b4f` or `#1a6` becomes `#1a6b4f` once the box is left.
        onBlur={() => setText(typedColour(text))}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        maxLength={9}
        placeholder="#rrggbb"
        className={`${inputClass} mt-0! max-w-36 font-mono`}
        {...invalid}
      />
    </div>
  );
}
