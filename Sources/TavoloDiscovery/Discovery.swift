import CDNSSD
