import { data } from 'react-router';
import { contactFormFromForm } from '../../../domain/forms/contact-form';
import { HONEYPOT_FIELD, textOf } from '../../../domain/forms/messages';
import { ContactSection } from '../../components/forms/contact-section';
import { serverContext } from '../../context';
import { pageMeta } from '../../meta';
import { submitForm } from '../../forms.server';
import { pageMessages } from '../../i18n/messages.server';
import type { Route } from './+types/contact-form';

/** Message groups this page reads, sent with it on top of the shell's. */
export const messageGroups = ['forms'] as const;

export function loader({ params }: Route.LoaderArgs) {
  return { messages: pageMessages(params.lang, messageGroups) };
}

/**
 * Where the contact form posts. With JavaScript the home page calls this action in place;
 * without it the browser lands here and sees the form again, with its errors or its confirmation.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const answers = { ...contactFormFromForm(form), [HONEYPOT_FIELD]: textOf(form, HONEYPOT_FIELD) };
  const { result, status } = await submitForm(context.get(serverContext), 'contactForms', answers, params.lang);
  return data(result, { status });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'forms.contact.title', index: false });
}

export default function ContactFormPage({ actionData }: Route.ComponentProps) {
  return <ContactSection result={actionData} />;
}
