// The loopback receiver lives with the shared delivery core; esign's tests import it from here.
export { startReceiver, verify, type Received } from '../../../../../packages/webhooks/src/__tests__/receiver';
