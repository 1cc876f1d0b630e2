import { DeleteObjectCommand, GetBucketVersioningCommand, ListObjectVersionsCommand, PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { startTestS3Server, type TestS3Server } from '../testing';
import { createS3BlobStore } from './s3-blob-store';

/** Erasure on a versioned bucket: `removeTree` leaves no earlier version and no delete marker behind. */
describe('S3 blob store on a versioned bucket', () => {
  let server: TestS3Server;
  let store: ReturnType<typeof createS3BlobStore>;

  beforeAll(async () => {
    server = await startTestS3Server();
    store = createS3BlobStore({ settings: server.settings, prefix: 'esign' });
    await store.client.send(new PutBucketVersioningCommand({ Bucket: server.settings.bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  });

  afterAll(async () => {
    store?.client.destroy();
    await server?.close();
  });

  const versionsUnder = async (Prefix: string) => {
    const page = await store.client.send(new ListObjectVersionsCommand({ Bucket: server.settings.bucket, Prefix }));
    return [...(page.Versions ?? []).map((v) => `${v.Key} version${v.IsLatest ? ' latest' : ''}`), ...(page.DeleteMarkers ?? []).map((m) => `${m.Key} marker${m.IsLatest ? ' latest' : ''}`)].sort();
  };

  it('keeps earlier versions and delete markers as S3 does, and removeTree removes every one of them', async () => {
    expect((await store.client.send(new GetBucketVersioningCommand({ Bucket: server.settings.bucket }))).Status).toBe('Enabled');
    await store.write('documents/d1/original.pdf', Buffer.from('first'));
    await store.write('documents/d1/original.pdf', Buffer.from('second'));
    await store.write('documents/d1/pages/1-480.png', Buffer.from('page'));
    await store.remove('documents/d1/pages/1-480.png');
    await store.write('documents/d1', Buffer.from('a key that is the folder name'));
    await store.write('documents/d10/original.pdf', Buffer.from('sibling one'));
    await store.write('documents/d10/original.pdf', Buffer.from('sibling two'));

    // The bucket keeps what a plain delete or overwrite leaves (as a versioned S3 bucket does).
    expect(await store.exists('documents/d1/pages/1-480.png')).toBe(false);
    expect(await versionsUnder('esign/documents/d1/')).toEqual([
      'esign/documents/d1/original.pdf version',
      'esign/documents/d1/original.pdf version latest',
      'esign/documents/d1/pages/1-480.png marker latest',
      'esign/documents/d1/pages/1-480.png version',
    ]);

    await store.removeTree('documents/d1');
    expect(await versionsUnder('esign/documents/d1/')).toEqual([]);
    expect((await versionsUnder('esign/documents/d1')).filter((v) => !v.startsWith('esign/documents/d10/'))).toEqual([]);
    // the sibling whose name starts alike keeps both its versions
    expect(await versionsUnder('esign/documents/d10/')).toEqual(['esign/documents/d10/original.pdf version', 'esign/documents/d10/original.pdf version latest']);
    expect((await store.read('documents/d10/original.pdf'))?.toString()).toBe('sibling two');
  });

  it('makes the previous version current again when the latest is deleted by its version id (the test server follows S3)', async () => {
    await store.write('documents/d2/original.pdf', Buffer.from('one'));
    await store.write('documents/d2/original.pdf', Buffer.from('two'));
    const page = await store.client.send(new ListObjectVersionsCommand({ Bucket: server.settings.bucket, Prefix: 'esign/documents/d2/' }));
    const latest = page.Versions!.find((v) => v.IsLatest)!;
    await store.client.send(new DeleteObjectCommand({ Bucket: server.settings.bucket, Key: latest.Key, VersionId: latest.VersionId }));
    expect((await store.read('documents/d2/original.pdf'))?.toString()).toBe('one');
    expect(await versionsUnder('esign/documents/d2/')).toEqual(['esign/documents/d2/original.pdf version latest']);
  });
});
