/**
 * The page for a request the dashboard refuses: what happened and what to do next, with the
 * status code that says the same to a machine. Nothing is recorded on the way to this page.
 */
import { Layout } from './layout.tsx';

export interface Problem {
  status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 500 | 502;
  title: string;
  /** What happened, in a sentence. */
  what: string;
  /** What the person can do now, in a sentence. */
  next: string;
  /** A link back, when there is a page to go back to. */
  back?: { href: string; label: string };
}

export function ProblemPage(props: { problem: Problem; root?: string }) {
  const { title, what, next, back } = props.problem;
  return (
    <Layout title={title} root={props.root}>
      <section class="problem" role="alert">
        <h1>{title}</h1>
        <p>{what}</p>
        <p>{next}</p>
        {back ? (
          <p>
            <a href={back.href}>{back.label}</a>
          </p>
        ) : null}
      </section>
    </Layout>
  );
}
