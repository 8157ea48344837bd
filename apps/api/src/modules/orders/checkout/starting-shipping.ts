/** A new store's shipping is the shipping module's (decision 115); signup still finds it here. */
export { addStartingShippingMethods } from '../../shipping/index';
