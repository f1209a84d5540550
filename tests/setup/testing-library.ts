// Component tests (jsdom): `findBy…` and `waitFor` wait up to 10 s for what they expect (Testing Library's default is
// 1 s, which a 2-core machine under load missed: decision 159). A test that passes still passes as soon as its
// expectation holds; only a failure takes longer to report. Node-environment files skip the import.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
