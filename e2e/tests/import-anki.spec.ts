/**
 * Anki import and export in a real Chromium (issue 18): a text export with its headers and
 * HTML, previewed (what is created, what is skipped and why) before it is imported; an .apkg
 * package; a set exported as CSV and for Anki.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signUp } from './support/auth';

const here = path.dirname(fileURLToPath(import.meta.url));

const ankiText = ['#separator:tab', '#html:true', '#columns:Front\tBack', '#deck:Languages::Spanish', 'hola\t<b>hello</b>', 'adiós\tgood&nbsp;bye', 'Hola\tHello', '<br>\t<div></div>'].join('\n');

test('Anki text: preview lists what is created and skipped, then the set is imported and exported', async ({ page }) => {
  await signUp(page, 'anki');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByLabel('Format').selectOption('anki_text');
  await page.getByLabel('Text', { exact: true }).fill(ankiText);
  await page.getByRole('button', { name: 'Preview' }).click();

  await expect(page.getByTestId('import-preview-summary')).toHaveText('2 points will be created, 2 rows skipped.');
  await expect(page.getByTestId('import-preview')).toContainText('Preview: “Spanish”');
  await expect(page.getByTestId('import-preview-point')).toHaveText(['hellohola', 'good byeadiós']);
  await expect(page.getByTestId('import-preview-skipped')).toHaveText(['line 7duplicate of an earlier pointHello', 'line 8empty once HTML is stripped<br> <div></div>']);
  // Nothing exists until confirmed.
  await page.getByTestId('import-confirm').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Spanish');
  await expect(page.getByTestId('schedule-row')).toHaveCount(2);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe('Spanish.csv');
  expect(await readFile((await csv.path())!, 'utf8')).toBe('content,context,due,stability,difficulty,reps,lapses\r\nhello,hola,,,,,\r\ngood bye,adiós,,,,,\r\n');

  const ankiDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export for Anki' }).click();
  const anki = await ankiDownload;
  expect(anki.suggestedFilename()).toBe('Spanish.txt');
  expect(await readFile((await anki.path())!, 'utf8')).toBe('#separator:tab\n#html:false\n#notetype:Basic\n#columns:Front\tBack\n#deck:Spanish\nhola\thello\nadiós\tgood bye\n');
});

test('.apkg: a package is previewed and imported', async ({ page }) => {
  await signUp(page, 'apkg');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByLabel('Format').selectOption('apkg');
  await page.getByLabel('Package file').setInputFiles(path.join(here, 'fixtures', 'capitals.apkg'));
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('import-preview-summary')).toHaveText('3 points will be created, 1 row skipped.');
  await expect(page.getByTestId('import-preview-point')).toHaveText(['LimaCapital of Peru?', 'Quito is the capital of Ecuador', 'SantiagoCapital of Chile?']);
  await expect(page.getByTestId('import-preview-skipped')).toHaveText(['note 4duplicate of an earlier pointLima']);
  await page.getByTestId('import-confirm').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Capitals');
  await expect(page.getByTestId('schedule-row')).toHaveCount(3);
});
