/**
 * The first shelf: public-domain books a fresh install puts in its public library, so that the first
 * reader opens a real book at once. The files and their licences are in `books/` (SOURCES.md).
 */
export interface ShelfBook {
  /** Seeded once, ever, under this name (first_shelf.slug). */
  slug: string;
  /** The file in books/. */
  file: string;
  title: string;
  author: string;
  /** A reading-language code: what the book is written in. */
  language: string;
  description: string;
}

export const FIRST_SHELF: readonly ShelfBook[] = [
  {
    slug: 'frankenstein',
    file: 'frankenstein.txt',
    title: 'Frankenstein; or, the Modern Prometheus',
    author: 'Mary Wollstonecraft Shelley',
    language: 'en',
    description:
      '玛丽·雪莱 1818 年的哥特小说：一位年轻的科学家造出了一个生命，又被它一路追到北极。Mary Shelley’s 1818 novel of a scientist and the creature he made. Public domain (Project Gutenberg #84).',
  },
  {
    slug: 'adventures-of-sherlock-holmes',
    file: 'adventures-of-sherlock-holmes.txt',
    title: 'The Adventures of Sherlock Holmes',
    author: 'Arthur Conan Doyle',
    language: 'en',
    description:
      '柯南·道尔的十二篇福尔摩斯探案，从《波希米亚丑闻》到《铜山毛榉案》（1892）。Twelve Sherlock Holmes stories. Public domain (Project Gutenberg #1661).',
  },
  {
    slug: 'kusamakura',
    file: 'kusamakura.epub',
    title: '草枕',
    author: '夏目漱石',
    language: 'jp',
    description:
      '夏目漱石 1906 年的小说：一位画家走进山间温泉小村，想过一段“非人情”的日子。竖排日文，带假名注音。Natsume Sōseki’s 1906 novel, in vertical Japanese. Text public domain; EPUB edition © IDPF, CC BY-SA 3.0.',
  },
  {
    slug: 'rashomon',
    file: 'rashomon.txt',
    title: '羅生門',
    author: '芥川龍之介',
    language: 'jp',
    description:
      '芥川龙之介 1915 年的短篇：荒废的罗生门下，一个走投无路的仆人。十分钟就能读完。Akutagawa’s 1915 short story. Public domain (Project Gutenberg #1982).',
  },
];
