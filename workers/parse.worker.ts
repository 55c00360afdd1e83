// Browser entry of the parse worker: serves lib/io/parseHost on `self` (run logs, pasted requests and
// attention files are read here, off the page's main thread). No parsing logic here.
import { serveParse, type ParsePort } from '../lib/io/parseHost';

serveParse(self as unknown as ParsePort);
