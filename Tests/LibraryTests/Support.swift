// Every file here sees the shared fakes.
@_exported import TestSupport
