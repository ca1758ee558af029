import { useLocale } from '../../i18n/messages';
import { useShell } from '../../shell';
import { Section } from '../site/section';
import { ContactForm } from './contact-form';
import type { FormResult } from './form-result';

/** The contact form in a page section, shown while the contact-form feature is on. */
export function ContactSection({ result, tone }: { result?: FormResult; tone?: 'page' | 'sunken' }) {
  const { t } = useLocale();
  const { market } = useShell();
  if (!market.contactForm) return null;
  return (
    <Section id="contact" heading={t('forms.contact.heading')} lead={t('forms.contact.lead')} tone={tone}>
      <ContactForm result={result} />
    </Section>
  );
}
