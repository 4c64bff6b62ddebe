import UIKit

final class ChatView: UIView {}
