// Local recognition: the recogniser of @parla/speech in its own thread, answering typed requests.
import { serveSpeechWorker, type WorkerScope } from '@parla/speech/web';

// The app compiles with the DOM library, where `self` is typed as a Window; here it is the worker's scope.
serveSpeechWorker(self as unknown as WorkerScope);
