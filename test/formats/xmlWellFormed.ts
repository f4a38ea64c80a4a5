import { SaxesParser } from 'saxes';

/** Throws when `xml` is not well-formed, namespace-correct XML (an independent strict parser). */
export function assertWellFormedXml(xml: string, name: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let failure: Error | undefined;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.write(xml).close();
  if (failure) throw new Error(`${name}: ${failure.message}`);
}
