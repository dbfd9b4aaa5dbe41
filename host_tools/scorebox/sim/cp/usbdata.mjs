// CircuitPython's second USB serial port, usb_cdc.data (enabled in boot.py), on a socket of
// its own (cfg.usb_data_fd: the driver's second pty). rp2040js's USB host (its USBCDC) reads
// the configuration descriptor and opens the LAST CDC data interface only: with usb_cdc.data
// on, that is the data port, and the console goes unheard. Here the console is moved back to
// the first CDC data interface (board.cdc, relayed by board.mjs as before) and the last one
// is relayed here; both get DTR and RTS, as a PC opening its ports sets them. The PC side's
// reads wait (as a host's NAKs do) until it has data, as board.mjs's relay does.
import net from 'node:net';

const CDC_COMM = 2;
const CDC_DATA = 10;
// SET_CONTROL_LINE_STATE (class, to an interface), DTR and RTS on: its setup packet.
const lineState = (itf) => Uint8Array.of(0x21, 0x22, 3, 0, itf, 0, 0, 0);

// [{comm, in, out}] of each CDC function in the configuration descriptor, in order: the
// communication interface's number and the bulk endpoints of the data interface after it.
export function cdcFunctions(d) {
  const out = [];
  let comm = -1;
  let cur = null;
  for (let i = 0; i + 1 < d.length && d[i] >= 2; i += d[i]) {
    const [len, type] = [d[i], d[i + 1]];
    if (type === 4 && len === 9) {
      cur = null;
      if (d[i + 5] === CDC_COMM) comm = d[i + 2];
      if (d[i + 5] === CDC_DATA && d[i + 4] === 2) out.push((cur = { comm, in: -1, out: -1 }));
    } else if (type === 5 && len === 7 && cur && (d[i + 3] & 3) === 2) {
      if (d[i + 2] & 0x80) cur.in = d[i + 2] & 0xf;
      else cur.out = d[i + 2] & 0xf;
    }
  }
  return out;
}

export function dataPort(board) {
  const { cdc, mcu } = board;
  const usbCtrl = mcu.usbCtrl;
  const inbox = [];
  let pending = null; // the data port's OUT buffer the box armed while the PC had sent nothing
  let data = null; // {comm, in, out} once configured
  let lineStates = []; // SET_CONTROL_LINE_STATEs still to send, one per control transfer

  const connected = cdc.onDeviceConnected;
  cdc.onDeviceConnected = () => {
    const fns = cdcFunctions(cdc.descriptors);
    if (fns.length > 1) {
      cdc.inEndpoint = fns[0].in; // the console: the first CDC
      cdc.outEndpoint = fns[0].out;
      data = fns[fns.length - 1];
      // The box armed both OUT endpoints while it took the configuration, before USBCDC
      // knew which was the console's: asked again, now that each has its relay.
      for (const [ep, size] of armed) usbCtrl.onEndpointRead(ep, size);
      // USBCDC set the console's line state (as wIndex 0): the data port's follows its ACK.
      lineStates = [data.comm];
    }
    armed = null;
    connected();
  };
  const write = usbCtrl.onEndpointWrite;
  usbCtrl.onEndpointWrite = (ep, buf) => {
    const configured = cdc.initialized;
    write(ep, buf);
    if (ep === 0 && buf.length === 0 && configured && lineStates.length) {
      usbCtrl.sendSetupPacket(lineState(lineStates.shift()));
    } else if (data && ep === data.in) {
      wire.last_out = board.cycles();
      sock.write(Buffer.from(buf));
    }
  };
  const read = usbCtrl.onEndpointRead;
  let armed = new Map(); // OUT endpoints the box armed before the configuration ended
  usbCtrl.onEndpointRead = (ep, size) => {
    if (armed) armed.set(ep, size);
    if (!data || ep !== data.out) return read(ep, size);
    if (!inbox.length) pending = size;
    else usbCtrl.endpointReadDone(ep, Uint8Array.from(inbox.splice(0, size)));
  };
  // For the sync's figures (bench/bench_cp_sync.py): the cycle of the PC's first byte since
  // stats() was last asked, and of the box's last byte to the PC on this port.
  const wire = { first_in: null, last_out: null };
  const more = board.moreStats;
  board.moreStats = () => {
    const out = { ...more(), data_first_in: wire.first_in, data_last_out: wire.last_out };
    wire.first_in = null;
    return out;
  };
  const feed = board.feed;
  board.feed = () => {
    feed();
    if (pending !== null && inbox.length) {
      const size = pending;
      pending = null;
      usbCtrl.endpointReadDone(data.out, Uint8Array.from(inbox.splice(0, size)));
    }
    if (sock.isPaused() && inbox.length < 4096) sock.resume();
  };
  // Both ports' IN packets at full speed's pace, on the one bus, as MicroPython's harness paces
  // its console's (board.mjs).
  board.paceIn((ep) => ep === cdc.inEndpoint || (data !== null && ep === data.in));
  const sock = new net.Socket({ fd: board.cfg.usb_data_fd, readable: true, writable: true });
  sock.on('data', (chunk) => {
    if (wire.first_in === null) wire.first_in = board.cycles();
    for (const b of chunk) inbox.push(b);
    if (inbox.length > 65536) sock.pause();
    board.wake();
  });
  sock.on('error', () => {});
}
