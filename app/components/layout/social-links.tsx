import { useLocale } from '../../i18n/messages';
import { useSite } from '../../shell';
import { FacebookIcon, InstagramIcon, LinkedInIcon, YouTubeIcon } from '../ui/icons';

/** The brand's social accounts, named by the brand's slug. */
export function socialAccounts(slug: string) {
  return [
    { name: 'Facebook', href: `https://www.facebook.com/${slug}`, Icon: FacebookIcon },
    { name: 'Instagram', href: `https://www.instagram.com/${slug}`, Icon: InstagramIcon },
    { name: 'LinkedIn', href: `https://www.linkedin.com/company/${slug}`, Icon: LinkedInIcon },
    { name: 'YouTube', href: `https://www.youtube.com/@${slug}`, Icon: YouTubeIcon },
  ];
}

export function SocialLinks({ className = '' }: { className?: string }) {
  const { t } = useLocale();
  const { site } = useSite();
  return (
    <ul className={`flex items-center gap-2 ${className}`} aria-label={t('footer.social')}>
      {socialAccounts(site.brandSlug).map(({ name, href, Icon }) => (
        <li key={name}>
          <a
            href={href}
            target="_blank"
            rel="noopener"
            aria-label={t('footer.socialOn', { network: name, brand: site.brandName })}
            className="grid h-10 w-10 place-items-center rounded-full hover:bg-white/10"
          >
            <Icon />
          </a>
        </li>
      ))}
    </ul>
  );
}
