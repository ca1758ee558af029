import { useLocale } from '../../i18n/messages';
import { useSite } from '../../shell';
import { ChatIcon } from '../ui/icons';

/** The floating button that opens a chat with the sales team. */
export function ChatButton() {
  const { t } = useLocale();
  const { site } = useSite();
  return (
    <aside aria-label={t('nav.chatRegion')}>
      <a
        href={site.chatUrl}
        target="_blank"
        rel="noopener"
        aria-label={t('nav.chat')}
        data-testid="chat-button"
        className="fixed right-5 bottom-5 z-40 grid h-14 w-14 place-items-center rounded-full bg-brand-600 text-white shadow-lg hover:bg-brand-700"
      >
        <ChatIcon className="h-7 w-7" />
      </a>
    </aside>
  );
}
