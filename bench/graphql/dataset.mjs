// The fixed dataset of issue 4, generated in PostgreSQL. Ratings and the published flag come
// from md5 of the id, so every run (and every server) gets the same rows without random().
export const AUTHORS = 10_000;
export const ARTICLES_PER_AUTHOR = 10;
export const ARTICLES = AUTHORS * ARTICLES_PER_AUTHOR;
export const COMMENTS_PER_ARTICLE = 5;

/** 32 well-mixed bits of md5(salt || id), as a bigint. */
const hash = (salt, id) => `('x' || left(md5('${salt}' || ${id}), 8))::bit(32)::bigint`;

export const DATASET_SQL = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE article (
  id int PRIMARY KEY,
  author_id int NOT NULL REFERENCES author (id),
  title text NOT NULL,
  rating int NOT NULL,
  published boolean NOT NULL
);
CREATE TABLE comment (
  id int PRIMARY KEY,
  article_id int NOT NULL REFERENCES article (id),
  body text NOT NULL
);

INSERT INTO author SELECT i, 'Author ' || i FROM generate_series(1, ${AUTHORS}) i;
INSERT INTO article
  SELECT i, (i - 1) / ${ARTICLES_PER_AUTHOR} + 1, 'Article ' || i, ${hash('rating', 'i')} % 100, ${hash('published', 'i')} % 10 < 6
  FROM generate_series(1, ${ARTICLES}) i;
INSERT INTO comment
  SELECT i, (i - 1) / ${COMMENTS_PER_ARTICLE} + 1, 'Comment ' || i
  FROM generate_series(1, ${ARTICLES * COMMENTS_PER_ARTICLE}) i;

CREATE INDEX article_author_id ON article (author_id);
CREATE INDEX comment_article_id ON comment (article_id);
CREATE INDEX article_published_rating ON article (rating DESC, id) WHERE published;
`;
