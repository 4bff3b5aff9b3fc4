import { useState } from 'react';
import { useRenewExpiredMedia } from '../../shell/mediaRenewal.ts';
import { coverColors } from './bookUtils.ts';

interface BookCoverProps {
  name: string;
  author?: string;
  coverUrl: string | null;
  size?: 'card' | 'large';
}

/**
 * The book's cover image, or a typographic cover made from its title when there is none (or it fails).
 * An expired URL fails too: the list is fetched again, and its fresh URL replaces it.
 */
export function BookCover({ name, author, coverUrl, size = 'card' }: BookCoverProps) {
  const [broken, setBroken] = useState<string | null>(null);
  const renewExpired = useRenewExpiredMedia();
  const className = `yd-cover yd-cover-${size}`;
  if (coverUrl && broken !== coverUrl) {
    return (
      <div className={className}>
        <img
          src={coverUrl}
          alt=""
          loading="lazy"
          onError={() => {
            setBroken(coverUrl);
            renewExpired(coverUrl);
          }}
        />
      </div>
    );
  }
  const [background, ink] = coverColors(name);
  return (
    <div className={`${className} yd-cover-generated`} style={{ background, color: ink }} aria-hidden="true">
      <span className="yd-cover-rule" />
      <span className="yd-cover-title">{name}</span>
      {author && <span className="yd-cover-author">{author}</span>}
    </div>
  );
}
