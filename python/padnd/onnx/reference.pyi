from onnx.reference.op_run import OpRun

class Pad(OpRun): ...

ReferencePad = Pad
