// The query and mutation workloads: each one's GraphQL text in this
// engine's dialect and in PostGraphile's, the variables (and role headers) of the k-th request,
// the SQL the raw ceiling runs, and how to reduce either answer to the same underlying values
// (the shapes differ).
import { AUTHORS, ARTICLES } from './dataset.mjs';

/** A deterministic spread over 1..n: request k and k+1 hit unrelated rows. */
const spread = (k, n) => 1 + ((k * 7919) % n);

const W1_SERVICE = 'query W1($id: Int!) { article_by_pk(id: $id) { id title rating published } }';
const W1_SQL = `SELECT json_build_object('id', a.id, 'title', a.title, 'rating', a.rating, 'published', a.published)
  FROM article a WHERE a.id = $1`;
const w1Values = (a) => a && { id: a.id, title: a.title, rating: a.rating, published: a.published };

/** The role of W1-role: its select permission on `article` filters with a session variable. */
export const READER = {
  role: 'reader',
  permission: { columns: ['id', 'title', 'rating', 'published'], filter: { author_id: { _gte: 'X-Service-Min-Author' } } },
  headers: { 'x-service-role': 'reader', 'x-service-min-author': '1' },
};

/**
 * The role of M1-role: it inserts articles as the author of its session (the `set` preset, so
 * `author_id` is not in its input type), checked against the same variable; it reads back the
 * articles of that author.
 */
export const WRITER = {
  role: 'writer',
  insert: { columns: ['title', 'rating', 'published'], set: { author_id: 'X-Service-User-Id' }, check: { author_id: { _eq: 'X-Service-User-Id' } } },
  select: { columns: ['id', 'author_id', 'title', 'rating', 'published'], filter: { author_id: { _eq: 'X-Service-User-Id' } } },
};

export const WORKLOADS = [
  {
    name: 'W1',
    about: 'article by primary key',
    variables: (k) => ({ id: spread(k, ARTICLES) }),
    service: W1_SERVICE,
    postgraphile: 'query W1($id: Int!) { articleById(id: $id) { id title rating published } }',
    ceiling: { field: 'article_by_pk', sql: W1_SQL, params: (v) => [v.id] },
    values: { service: (d) => w1Values(d.article_by_pk), postgraphile: (d) => w1Values(d.articleById) },
  },
  {
    name: 'W1-role',
    about: 'W1 as role reader (filter on a session variable)',
    variables: (k) => ({ id: spread(k, ARTICLES) }),
    headers: () => READER.headers,
    service: W1_SERVICE,
    // PostGraphile would need row-level security for this: not measured there.
    postgraphile: null,
    ceiling: { field: 'article_by_pk', sql: `${W1_SQL} AND a.author_id >= $2`, params: (v, session) => [v.id, session['x-service-min-author']] },
    values: { service: (d) => w1Values(d.article_by_pk) },
  },
  {
    name: 'W2',
    about: '20 top-rated published articles with their author',
    variables: () => ({}),
    service: `query W2 { article(where: {published: {_eq: true}}, order_by: [{rating: desc}, {id: asc}], limit: 20) {
      id title rating author { id name } } }`,
    postgraphile: `query W2 { allArticles(condition: {published: true}, orderBy: [RATING_DESC, ID_ASC], first: 20) {
      nodes { id title rating authorByAuthorId { id name } } } }`,
    ceiling: {
      field: 'article',
      sql: `SELECT coalesce(json_agg(json_build_object('id', a.id, 'title', a.title, 'rating', a.rating,
          'author', json_build_object('id', au.id, 'name', au.name)) ORDER BY a.rating DESC, a.id), '[]')
        FROM (SELECT * FROM article WHERE published ORDER BY rating DESC, id LIMIT 20) a
        JOIN author au ON au.id = a.author_id`,
      params: () => [],
    },
    values: {
      service: (d) => d.article.map((a) => ({ id: a.id, title: a.title, rating: a.rating, author: a.author })),
      postgraphile: (d) => d.allArticles.nodes.map((a) => ({ id: a.id, title: a.title, rating: a.rating, author: a.authorByAuthorId })),
    },
  },
  {
    name: 'W3',
    about: '10 authors by id, 5 latest articles each, comment count per article',
    // Ten consecutive ids from a varying start.
    variables: (k) => ({ ids: Array.from({ length: 10 }, (_, i) => spread(k, AUTHORS - 10) + i) }),
    service: `query W3($ids: [Int!]!) { author(where: {id: {_in: $ids}}, order_by: {id: asc}) {
      id name articles(order_by: {id: desc}, limit: 5) { id title comments_aggregate { aggregate { count } } } } }`,
    postgraphile: `query W3($ids: [Int!]!) { allAuthors(filter: {id: {in: $ids}}, orderBy: ID_ASC) {
      nodes { id name articlesByAuthorId(orderBy: ID_DESC, first: 5) { nodes { id title commentsByArticleId { totalCount } } } } } }`,
    ceiling: {
      field: 'author',
      sql: `SELECT coalesce(json_agg(json_build_object('id', au.id, 'name', au.name, 'articles', ar.articles) ORDER BY au.id), '[]')
        FROM author au
        CROSS JOIN LATERAL (
          SELECT coalesce(json_agg(json_build_object('id', a.id, 'title', a.title, 'comments_aggregate',
              json_build_object('aggregate', json_build_object('count', (SELECT count(*) FROM comment c WHERE c.article_id = a.id))))
            ORDER BY a.id DESC), '[]') AS articles
          FROM (SELECT id, title FROM article WHERE author_id = au.id ORDER BY id DESC LIMIT 5) a
        ) ar
        WHERE au.id = ANY($1::int[])`,
      params: (v) => [v.ids],
    },
    values: {
      service: (d) =>
        d.author.map((au) => ({
          id: au.id,
          name: au.name,
          articles: au.articles.map((a) => ({ id: a.id, title: a.title, comments: a.comments_aggregate.aggregate.count })),
        })),
      postgraphile: (d) =>
        d.allAuthors.nodes.map((au) => ({
          id: au.id,
          name: au.name,
          articles: au.articlesByAuthorId.nodes.map((a) => ({ id: a.id, title: a.title, comments: a.commentsByArticleId.totalCount })),
        })),
    },
  },
  {
    name: 'W4',
    about: "count and average rating of an author's published articles",
    variables: (k) => ({ authorId: spread(k, AUTHORS) }),
    service: `query W4($authorId: Int!) { article_aggregate(where: {author_id: {_eq: $authorId}, published: {_eq: true}}) {
      aggregate { count avg { rating } } } }`,
    postgraphile: `query W4($authorId: Int!) { allArticles(condition: {authorId: $authorId, published: true}) {
      totalCount aggregates { average { rating } } } }`,
    ceiling: {
      field: 'article_aggregate',
      sql: `SELECT json_build_object('aggregate', json_build_object('count', count(*), 'avg', json_build_object('rating', avg(rating))))
        FROM article WHERE author_id = $1 AND published`,
      params: (v) => [v.authorId],
    },
    values: {
      // Averages come as numbers or as decimal strings depending on the server.
      service: (d) => ({ count: d.article_aggregate.aggregate.count, avg: toNumber(d.article_aggregate.aggregate.avg.rating) }),
      postgraphile: (d) => ({ count: d.allArticles.totalCount, avg: toNumber(d.allArticles.aggregates.average.rating) }),
    },
  },
];

const toNumber = (x) => (x === null ? null : Number(x));

/**
 * An inserted article: its id differs from server to server (the sequence has moved on by
 * another count), so only whether it is a new one (beyond the dataset's) is compared.
 */
const inserted = (a) => a && { id: Number.isInteger(a.id) && a.id > ARTICLES ? 'new' : a.id, title: a.title, rating: a.rating };
const INSERT_SQL = 'INSERT INTO article (author_id, title, rating, published) VALUES ($1, $2, $3, $4)';
const INSERTED_JSON = "json_build_object('id', id, 'title', title, 'rating', rating)";
const articleValues = (k) => ({ t: `Bench article ${k}`, r: k % 100, p: k % 2 === 0 });

/**
 * The mutation workloads, on the dataset with ARTICLE_IDENTITY_SQL (new articles take new ids). Updates
 * spread over the table so that concurrent requests touch different rows. Only this engine's dialect:
 * PostGraphile is not measured on mutations.
 */
export const MUTATIONS = [
  {
    name: 'M1',
    about: 'insert_article_one',
    variables: (k) => ({ a: spread(k, AUTHORS), ...articleValues(k) }),
    service: `mutation M1($a: Int!, $t: String!, $r: Int!, $p: Boolean!) {
      insert_article_one(object: {author_id: $a, title: $t, rating: $r, published: $p}) { id title rating } }`,
    ceiling: { field: 'insert_article_one', sql: `${INSERT_SQL} RETURNING ${INSERTED_JSON}`, params: (v) => [v.a, v.t, v.r, v.p] },
    values: { service: (d) => inserted(d.insert_article_one) },
  },
  {
    name: 'M1-role',
    about: 'M1 as role writer (author_id preset from a session variable, check on it)',
    variables: articleValues,
    headers: (k) => ({ 'x-service-role': WRITER.role, 'x-service-user-id': String(spread(k, AUTHORS)) }),
    service: `mutation M1($t: String!, $r: Int!, $p: Boolean!) {
      insert_article_one(object: {title: $t, rating: $r, published: $p}) { id title rating } }`,
    ceiling: {
      field: 'insert_article_one',
      // The check is evaluated in the statement; a failing one (never, here) would answer null rather than roll back.
      sql: `${INSERT_SQL} RETURNING CASE WHEN author_id = $1 THEN ${INSERTED_JSON} END`,
      params: (v, session) => [session['x-service-user-id'], v.t, v.r, v.p],
    },
    values: { service: (d) => inserted(d.insert_article_one) },
  },
  {
    name: 'M2',
    about: 'update_article_by_pk',
    variables: (k) => ({ id: spread(k, ARTICLES), r: (k * 31) % 100 }),
    service: `mutation M2($id: Int!, $r: Int!) {
      update_article_by_pk(pk_columns: {id: $id}, _set: {rating: $r}) { id rating } }`,
    ceiling: {
      field: 'update_article_by_pk',
      sql: "UPDATE article SET rating = $2 WHERE id = $1 RETURNING json_build_object('id', id, 'rating', rating)",
      params: (v) => [v.id, v.r],
    },
    values: { service: (d) => d.update_article_by_pk },
  },
];

/** JSON with sorted keys and numbers to 12 significant digits: equal values, equal text. */
export function canonical(v) {
  const norm = (x) => {
    if (Array.isArray(x)) return x.map(norm);
    if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, norm(x[k])]));
    if (typeof x === 'number') return Number(x.toPrecision(12));
    return x;
  };
  return JSON.stringify(norm(v));
}
