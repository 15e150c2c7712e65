// On-demand backups with the AWS SDK for JavaScript v3 against
// `ddblab serve`: CreateBackupCommand, DescribeBackupCommand,
// ListBackupsCommand (paging), RestoreTableFromBackupCommand (data kept,
// stream not restored), DeleteBackupCommand and the exception classes the
// SDK maps DynamoDB's error names to. Run by `tests/clients/run.py js`.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import {
  BackupNotFoundException,
  CreateBackupCommand,
  CreateTableCommand,
  DeleteBackupCommand,
  DescribeBackupCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ListBackupsCommand,
  PutItemCommand,
  RestoreTableFromBackupCommand,
  TableAlreadyExistsException,
} from '@aws-sdk/client-dynamodb';

import { config } from './client_config.mjs';

const ddb = new DynamoDBClient(config);
after(() => ddb.destroy());

const SRC = 'js_backup_src';

describe('on-demand backups', () => {
  test('create, list, describe, restore, delete', async () => {
    await ddb.send(new CreateTableCommand({
      TableName: SRC,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' },
    }));
    await ddb.send(new PutItemCommand({
      TableName: SRC, Item: { pk: { S: 'a' }, n: { N: '1' } },
    }));
    const arns = [];
    for (const name of ['first', 'second']) {
      const { BackupDetails: d } = await ddb.send(new CreateBackupCommand({
        TableName: SRC, BackupName: name,
      }));
      assert.equal(d.BackupStatus, 'AVAILABLE');
      assert.equal(d.BackupType, 'USER');
      assert.ok(d.BackupCreationDateTime instanceof Date);
      assert.match(d.BackupArn, new RegExp(`table/${SRC}/backup/\\d{13}-[0-9a-f]{8}$`));
      arns.push(d.BackupArn);
    }
    const page1 = await ddb.send(new ListBackupsCommand({ TableName: SRC, Limit: 1 }));
    assert.equal(page1.BackupSummaries.length, 1);
    const page2 = await ddb.send(new ListBackupsCommand({
      TableName: SRC, Limit: 1, ExclusiveStartBackupArn: page1.LastEvaluatedBackupArn,
    }));
    assert.deepEqual(
      [...page1.BackupSummaries, ...page2.BackupSummaries].map((s) => s.BackupArn).sort(),
      [...arns].sort());
    assert.equal(page2.LastEvaluatedBackupArn, undefined);

    const { BackupDescription: desc } = await ddb.send(
      new DescribeBackupCommand({ BackupArn: arns[0] }));
    assert.equal(desc.SourceTableDetails.TableName, SRC);
    assert.equal(desc.SourceTableDetails.ItemCount, 1);
    assert.deepEqual(desc.SourceTableFeatureDetails.StreamDescription,
      { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' });

    const restored = await ddb.send(new RestoreTableFromBackupCommand({
      TargetTableName: 'js_backup_dst', BackupArn: arns[0],
    }));
    assert.equal(restored.TableDescription.RestoreSummary.SourceBackupArn, arns[0]);
    const { Table: t } = await ddb.send(new DescribeTableCommand({ TableName: 'js_backup_dst' }));
    assert.equal(t.StreamSpecification, undefined);
    const { Item } = await ddb.send(new GetItemCommand({
      TableName: 'js_backup_dst', Key: { pk: { S: 'a' } },
    }));
    assert.deepEqual(Item, { pk: { S: 'a' }, n: { N: '1' } });

    await assert.rejects(
      ddb.send(new RestoreTableFromBackupCommand({
        TargetTableName: 'js_backup_dst', BackupArn: arns[0],
      })),
      (e) => e instanceof TableAlreadyExistsException
        && e.message === 'Table already exists: js_backup_dst');

    for (const arn of arns) {
      const { BackupDescription: d } = await ddb.send(new DeleteBackupCommand({ BackupArn: arn }));
      assert.equal(d.BackupDetails.BackupStatus, 'DELETED');
    }
    await assert.rejects(
      ddb.send(new DescribeBackupCommand({ BackupArn: arns[0] })),
      (e) => e instanceof BackupNotFoundException
        && e.message === `Backup not found: ${arns[0]}`);
  });
});
